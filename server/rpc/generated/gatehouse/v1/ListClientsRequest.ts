// Original file: gatehouse/v1/admin.proto


export interface ListClientsRequest {
  'realmId'?: (string);
}

export interface ListClientsRequest__Output {
  'realmId': (string);
}
