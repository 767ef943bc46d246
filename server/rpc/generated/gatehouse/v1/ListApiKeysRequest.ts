// Original file: gatehouse/v1/admin.proto


export interface ListApiKeysRequest {
}

export interface ListApiKeysRequest__Output {
}
