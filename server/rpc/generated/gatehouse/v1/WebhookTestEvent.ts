// Original file: gatehouse/v1/admin.proto


export interface WebhookTestEvent {
  'eventId'?: (string);
  'deliveryId'?: (string);
}

export interface WebhookTestEvent__Output {
  'eventId': (string);
  'deliveryId': (string);
}
