// Original file: gatehouse/v1/admin.proto


export interface StringList {
  'values'?: (string)[];
}

export interface StringList__Output {
  'values': (string)[];
}
