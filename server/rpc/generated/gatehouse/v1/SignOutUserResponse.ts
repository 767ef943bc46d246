// Original file: gatehouse/v1/admin.proto


export interface SignOutUserResponse {
  'revokedSessions'?: (number);
}

export interface SignOutUserResponse__Output {
  'revokedSessions': (number);
}
