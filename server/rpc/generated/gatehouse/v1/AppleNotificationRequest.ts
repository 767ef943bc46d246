// Original file: gatehouse/v1/auth.proto


export interface AppleNotificationRequest {
  'realmId'?: (string);
  'payload'?: (string);
}

export interface AppleNotificationRequest__Output {
  'realmId': (string);
  'payload': (string);
}
