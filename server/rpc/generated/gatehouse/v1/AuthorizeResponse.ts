// Original file: gatehouse/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface AuthorizeResponse {
  'state'?: (string);
  'clientId'?: (string);
  'redirectUri'?: (string);
  'expiresIn'?: (number | string | Long);
}

export interface AuthorizeResponse__Output {
  'state': (string);
  'clientId': (string);
  'redirectUri': (string);
  'expiresIn': (number);
}
