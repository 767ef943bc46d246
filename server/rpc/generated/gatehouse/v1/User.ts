// Original file: gatehouse/v1/admin.proto

import type { Identity as _gatehouse_v1_Identity, Identity__Output as _gatehouse_v1_Identity__Output } from '../../gatehouse/v1/Identity.ts';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';

export interface User {
  'realmId'?: (string);
  'id'?: (string);
  'email'?: (string);
  'emailVerified'?: (boolean);
  'givenName'?: (string);
  'familyName'?: (string);
  'identities'?: (_gatehouse_v1_Identity)[];
  'createdAt'?: (_google_protobuf_Timestamp | null);
  'disabled'?: (boolean);
  'disabledAt'?: (_google_protobuf_Timestamp | null);
}

export interface User__Output {
  'realmId': (string);
  'id': (string);
  'email': (string);
  'emailVerified': (boolean);
  'givenName': (string);
  'familyName': (string);
  'identities': (_gatehouse_v1_Identity__Output)[];
  'createdAt': (_google_protobuf_Timestamp__Output | null);
  'disabled': (boolean);
  'disabledAt': (_google_protobuf_Timestamp__Output | null);
}
