// Original file: gatehouse/v1/admin.proto


export interface ListAuditRecordsRequest {
  'realmId'?: (string);
  'action'?: (string);
  'targetId'?: (string);
  'actorId'?: (string);
  'since'?: (string);
  'until'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
  '_pageSize'?: "pageSize";
}

export interface ListAuditRecordsRequest__Output {
  'realmId': (string);
  'action': (string);
  'targetId': (string);
  'actorId': (string);
  'since': (string);
  'until': (string);
  'pageSize'?: (number);
  'pageToken': (string);
}
