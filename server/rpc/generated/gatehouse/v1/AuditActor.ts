// Original file: gatehouse/v1/admin.proto


export interface AuditActor {
  'type'?: (string);
  'id'?: (string);
}

export interface AuditActor__Output {
  'type': (string);
  'id': (string);
}
