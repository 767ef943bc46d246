// Original file: gatehouse/v1/admin.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateClientRequest {
  'realmId'?: (string);
  'clientId'?: (string);
  'name'?: (string);
  'type'?: (string);
  'redirectUris'?: (string)[];
  'ipBinding'?: (string);
  'enabled'?: (boolean);
  'accessTokenTtlSeconds'?: (number | string | Long);
  'refreshTokenTtlSeconds'?: (number | string | Long);
  '_ipBinding'?: "ipBinding";
  '_enabled'?: "enabled";
  '_accessTokenTtlSeconds'?: "accessTokenTtlSeconds";
  '_refreshTokenTtlSeconds'?: "refreshTokenTtlSeconds";
}

export interface CreateClientRequest__Output {
  'realmId': (string);
  'clientId': (string);
  'name': (string);
  'type': (string);
  'redirectUris': (string)[];
  'ipBinding'?: (string);
  'enabled'?: (boolean);
  'accessTokenTtlSeconds'?: (number);
  'refreshTokenTtlSeconds'?: (number);
}
