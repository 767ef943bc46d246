// Original file: gatehouse/v1/admin.proto


export interface GetRealmRequest {
  'realmId'?: (string);
}

export interface GetRealmRequest__Output {
  'realmId': (string);
}
