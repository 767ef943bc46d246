// Original file: gatehouse/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface IntrospectResponse {
  'active'?: (boolean);
  'scope'?: (string);
  'clientId'?: (string);
  'tokenType'?: (string);
  'exp'?: (number | string | Long);
  'iat'?: (number | string | Long);
  'sub'?: (string);
  'aud'?: (string);
  'iss'?: (string);
  'jti'?: (string);
  'sid'?: (string);
  '_scope'?: "scope";
  '_clientId'?: "clientId";
  '_tokenType'?: "tokenType";
  '_exp'?: "exp";
  '_iat'?: "iat";
  '_sub'?: "sub";
  '_aud'?: "aud";
  '_iss'?: "iss";
  '_jti'?: "jti";
  '_sid'?: "sid";
}

export interface IntrospectResponse__Output {
  'active': (boolean);
  'scope'?: (string);
  'clientId'?: (string);
  'tokenType'?: (string);
  'exp'?: (number);
  'iat'?: (number);
  'sub'?: (string);
  'aud'?: (string);
  'iss'?: (string);
  'jti'?: (string);
  'sid'?: (string);
}
