// Original file: gatehouse/v1/admin.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp.ts';
import type { AuditActor as _gatehouse_v1_AuditActor, AuditActor__Output as _gatehouse_v1_AuditActor__Output } from '../../gatehouse/v1/AuditActor.ts';

export interface AuditRecord {
  'auditId'?: (string);
  'at'?: (_google_protobuf_Timestamp | null);
  'realmId'?: (string);
  'actor'?: (_gatehouse_v1_AuditActor | null);
  'action'?: (string);
  'targetId'?: (string);
  'changesJson'?: (string);
  'requestId'?: (string);
}

export interface AuditRecord__Output {
  'auditId': (string);
  'at': (_google_protobuf_Timestamp__Output | null);
  'realmId': (string);
  'actor': (_gatehouse_v1_AuditActor__Output | null);
  'action': (string);
  'targetId': (string);
  'changesJson': (string);
  'requestId': (string);
}
