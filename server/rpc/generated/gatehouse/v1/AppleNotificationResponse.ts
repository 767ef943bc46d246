// Original file: gatehouse/v1/auth.proto


export interface AppleNotificationResponse {
}

export interface AppleNotificationResponse__Output {
}
