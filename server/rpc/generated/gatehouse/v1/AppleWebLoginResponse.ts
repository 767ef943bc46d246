// Original file: gatehouse/v1/auth.proto


export interface AppleWebLoginResponse {
  'location'?: (string);
}

export interface AppleWebLoginResponse__Output {
  'location': (string);
}
