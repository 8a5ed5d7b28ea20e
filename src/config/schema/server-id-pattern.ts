/** Server (and project) ids: lower-case letters, digits, `-` and `_`, starting with a letter or digit. */
export const SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
