// Original file: gatehouse/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface NativeLoginResponse {
  'message'?: (string);
  'userId'?: (string);
  'accessToken'?: (string);
  'refreshToken'?: (string);
  'expiresIn'?: (number | string | Long);
  'refreshExpiresIn'?: (number | string | Long);
  'tokenType'?: (string);
  'redirectUri'?: (string);
  '_message'?: "message";
  '_userId'?: "userId";
  '_accessToken'?: "accessToken";
  '_refreshToken'?: "refreshToken";
  '_expiresIn'?: "expiresIn";
  '_refreshExpiresIn'?: "refreshExpiresIn";
  '_tokenType'?: "tokenType";
  '_redirectUri'?: "redirectUri";
}

export interface NativeLoginResponse__Output {
  'message'?: (string);
  'userId'?: (string);
  'accessToken'?: (string);
  'refreshToken'?: (string);
  'expiresIn'?: (number);
  'refreshExpiresIn'?: (number);
  'tokenType'?: (string);
  'redirectUri'?: (string);
}
