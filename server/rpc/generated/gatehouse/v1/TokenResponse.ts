// Original file: gatehouse/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface TokenResponse {
  'accessToken'?: (string);
  'tokenType'?: (string);
  'expiresIn'?: (number | string | Long);
  'refreshToken'?: (string);
  'refreshExpiresIn'?: (number | string | Long);
  'scope'?: (string);
  '_scope'?: "scope";
}

export interface TokenResponse__Output {
  'accessToken': (string);
  'tokenType': (string);
  'expiresIn': (number);
  'refreshToken': (string);
  'refreshExpiresIn': (number);
  'scope'?: (string);
}
