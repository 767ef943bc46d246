// Original file: gatehouse/v1/admin.proto


export interface GetClientRequest {
  'realmId'?: (string);
  'clientId'?: (string);
}

export interface GetClientRequest__Output {
  'realmId': (string);
  'clientId': (string);
}
