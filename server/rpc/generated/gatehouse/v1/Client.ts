// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { Long } from '@grpc/proto-loader';

export interface Client {
  'realmId'?: (string);
  'clientId'?: (string);
  'name'?: (string);
  'type'?: (string);
  'redirectUris'?: (string)[];
  'ipBinding'?: (string);
  'enabled'?: (boolean);
  'accessTokenTtlSeconds'?: (number | string | Long);
  'refreshTokenTtlSeconds'?: (number | string | Long);
  'createdAt'?: (_google_protobuf_Timestamp | null);
}

export interface Client__Output {
  'realmId': (string);
  'clientId': (string);
  'name': (string);
  'type': (string);
  'redirectUris': (string)[];
  'ipBinding': (string);
  'enabled': (boolean);
  'accessTokenTtlSeconds': (number);
  'refreshTokenTtlSeconds': (number);
  'createdAt': (_google_protobuf_Timestamp__Output | null);
}
