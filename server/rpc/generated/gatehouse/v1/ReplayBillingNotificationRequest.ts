// Original file: gatehouse/v1/billing.proto


export interface ReplayBillingNotificationRequest {
  'realmId'?: (string);
  'notificationId'?: (string);
}

export interface ReplayBillingNotificationRequest__Output {
  'realmId': (string);
  'notificationId': (string);
}
