// Original file: gatehouse/v1/admin.proto


export interface CreatedApiKey {
  'id'?: (string);
  'key'?: (string);
  'realm'?: (string);
  'permissions'?: (string)[];
  'name'?: (string);
}

export interface CreatedApiKey__Output {
  'id': (string);
  'key': (string);
  'realm': (string);
  'permissions': (string)[];
  'name': (string);
}
