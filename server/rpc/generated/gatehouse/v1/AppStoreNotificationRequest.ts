// Original file: gatehouse/v1/billing.proto


export interface AppStoreNotificationRequest {
  'realmId'?: (string);
  'signedPayload'?: (string);
}

export interface AppStoreNotificationRequest__Output {
  'realmId': (string);
  'signedPayload': (string);
}
