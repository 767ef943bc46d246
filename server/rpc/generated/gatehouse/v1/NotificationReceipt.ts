// Original file: gatehouse/v1/billing.proto


export interface NotificationReceipt {
  'notificationId'?: (string);
  'status'?: (string);
}

export interface NotificationReceipt__Output {
  'notificationId': (string);
  'status': (string);
}
