// Original file: gatehouse/v1/auth.proto


export interface RevokeResponse {
}

export interface RevokeResponse__Output {
}
