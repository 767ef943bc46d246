// Original file: gatehouse/v1/auth.proto


export interface AuthorizationServerMetadata {
  'issuer'?: (string);
  'authorizationEndpoint'?: (string);
  'tokenEndpoint'?: (string);
  'jwksUri'?: (string);
  'revocationEndpoint'?: (string);
  'introspectionEndpoint'?: (string);
  'responseTypesSupported'?: (string)[];
  'grantTypesSupported'?: (string)[];
  'codeChallengeMethodsSupported'?: (string)[];
  'tokenEndpointAuthMethodsSupported'?: (string)[];
  'revocationEndpointAuthMethodsSupported'?: (string)[];
  'introspectionEndpointAuthMethodsSupported'?: (string)[];
  'userinfoEndpoint'?: (string);
  'subjectTypesSupported'?: (string)[];
}

export interface AuthorizationServerMetadata__Output {
  'issuer': (string);
  'authorizationEndpoint': (string);
  'tokenEndpoint': (string);
  'jwksUri': (string);
  'revocationEndpoint': (string);
  'introspectionEndpoint': (string);
  'responseTypesSupported': (string)[];
  'grantTypesSupported': (string)[];
  'codeChallengeMethodsSupported': (string)[];
  'tokenEndpointAuthMethodsSupported': (string)[];
  'revocationEndpointAuthMethodsSupported': (string)[];
  'introspectionEndpointAuthMethodsSupported': (string)[];
  'userinfoEndpoint': (string);
  'subjectTypesSupported': (string)[];
}
