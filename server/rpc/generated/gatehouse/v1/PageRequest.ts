// Original file: gatehouse/v1/pages.proto


export interface PageRequest {
  'realmId'?: (string);
}

export interface PageRequest__Output {
  'realmId': (string);
}
