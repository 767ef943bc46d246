// Original file: gatehouse/v1/admin.proto

import type { AuditRecord as _gatehouse_v1_AuditRecord, AuditRecord__Output as _gatehouse_v1_AuditRecord__Output } from '../../gatehouse/v1/AuditRecord.ts';

export interface ListAuditRecordsResponse {
  'records'?: (_gatehouse_v1_AuditRecord)[];
  'nextPageToken'?: (string);
}

export interface ListAuditRecordsResponse__Output {
  'records': (_gatehouse_v1_AuditRecord__Output)[];
  'nextPageToken': (string);
}
