// Original file: gatehouse/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface UserInfoResponse {
  'email'?: (string);
  'emailVerified'?: (boolean);
  'givenName'?: (string);
  'familyName'?: (string);
  'clientId'?: (string);
  'sid'?: (string);
  'sub'?: (string);
  'name'?: (string);
  'updatedAt'?: (number | string | Long);
  '_givenName'?: "givenName";
  '_familyName'?: "familyName";
  '_name'?: "name";
}

export interface UserInfoResponse__Output {
  'email': (string);
  'emailVerified': (boolean);
  'givenName'?: (string);
  'familyName'?: (string);
  'clientId': (string);
  'sid': (string);
  'sub': (string);
  'name'?: (string);
  'updatedAt': (number);
}
