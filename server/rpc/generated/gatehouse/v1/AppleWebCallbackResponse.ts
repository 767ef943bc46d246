// Original file: gatehouse/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface AppleWebCallbackResponse {
  'message'?: (string);
  'userId'?: (string);
  'accessToken'?: (string);
  'refreshToken'?: (string);
  'expiresIn'?: (number | string | Long);
  'refreshExpiresIn'?: (number | string | Long);
  'tokenType'?: (string);
  'location'?: (string);
  '_message'?: "message";
  '_userId'?: "userId";
  '_accessToken'?: "accessToken";
  '_refreshToken'?: "refreshToken";
  '_expiresIn'?: "expiresIn";
  '_refreshExpiresIn'?: "refreshExpiresIn";
  '_tokenType'?: "tokenType";
  '_location'?: "location";
}

export interface AppleWebCallbackResponse__Output {
  'message'?: (string);
  'userId'?: (string);
  'accessToken'?: (string);
  'refreshToken'?: (string);
  'expiresIn'?: (number);
  'refreshExpiresIn'?: (number);
  'tokenType'?: (string);
  'location'?: (string);
}
