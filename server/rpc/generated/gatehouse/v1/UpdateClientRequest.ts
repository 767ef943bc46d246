// Original file: gatehouse/v1/admin.proto

import type { StringList as _gatehouse_v1_StringList, StringList__Output as _gatehouse_v1_StringList__Output } from '../../gatehouse/v1/StringList.ts';
import type { Long } from '@grpc/proto-loader';

export interface UpdateClientRequest {
  'realmId'?: (string);
  'clientId'?: (string);
  'name'?: (string);
  'type'?: (string);
  'redirectUris'?: (_gatehouse_v1_StringList | null);
  'ipBinding'?: (string);
  'enabled'?: (boolean);
  'accessTokenTtlSeconds'?: (number | string | Long);
  'refreshTokenTtlSeconds'?: (number | string | Long);
  '_name'?: "name";
  '_type'?: "type";
  '_ipBinding'?: "ipBinding";
  '_enabled'?: "enabled";
  '_accessTokenTtlSeconds'?: "accessTokenTtlSeconds";
  '_refreshTokenTtlSeconds'?: "refreshTokenTtlSeconds";
}

export interface UpdateClientRequest__Output {
  'realmId': (string);
  'clientId': (string);
  'name'?: (string);
  'type'?: (string);
  'redirectUris': (_gatehouse_v1_StringList__Output | null);
  'ipBinding'?: (string);
  'enabled'?: (boolean);
  'accessTokenTtlSeconds'?: (number);
  'refreshTokenTtlSeconds'?: (number);
}
