// Original file: gatehouse/v1/billing.proto


export interface ListBillingNotificationsRequest {
  'realmId'?: (string);
  'status'?: (string);
  'pageSize'?: (number);
  'pageToken'?: (string);
  '_pageSize'?: "pageSize";
}

export interface ListBillingNotificationsRequest__Output {
  'realmId': (string);
  'status': (string);
  'pageSize'?: (number);
  'pageToken': (string);
}
