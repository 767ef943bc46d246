// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface Provider {
  'realmId'?: (string);
  'provider'?: (string);
  'clientId'?: (string);
  'enabled'?: (boolean);
  'hasClientSecret'?: (boolean);
  'additionalClientIds'?: (string)[];
  'teamId'?: (string);
  'keyId'?: (string);
  'hasPrivateKey'?: (boolean);
  'updatedAt'?: (_google_protobuf_Timestamp | null);
  'webClientId'?: (string);
  'requireNonce'?: (boolean);
}

export interface Provider__Output {
  'realmId': (string);
  'provider': (string);
  'clientId': (string);
  'enabled': (boolean);
  'hasClientSecret': (boolean);
  'additionalClientIds': (string)[];
  'teamId': (string);
  'keyId': (string);
  'hasPrivateKey': (boolean);
  'updatedAt': (_google_protobuf_Timestamp__Output | null);
  'webClientId': (string);
  'requireNonce': (boolean);
}
