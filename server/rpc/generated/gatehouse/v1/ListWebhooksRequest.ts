// Original file: gatehouse/v1/admin.proto


export interface ListWebhooksRequest {
  'realmId'?: (string);
}

export interface ListWebhooksRequest__Output {
  'realmId': (string);
}
