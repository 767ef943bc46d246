// Original file: gatehouse/v1/admin.proto


export interface CreateRealmRequest {
  'id'?: (string);
  'name'?: (string);
}

export interface CreateRealmRequest__Output {
  'id': (string);
  'name': (string);
}
