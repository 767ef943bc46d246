// Original file: gatehouse/v1/auth.proto


export interface Jwk {
  'kty'?: (string);
  'crv'?: (string);
  'x'?: (string);
  'kid'?: (string);
  'alg'?: (string);
  'use'?: (string);
  'y'?: (string);
  '_y'?: "y";
}

export interface Jwk__Output {
  'kty': (string);
  'crv': (string);
  'x': (string);
  'kid': (string);
  'alg': (string);
  'use': (string);
  'y'?: (string);
}
