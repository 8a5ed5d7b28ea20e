// The command that signs in to a server, named by every message about a missing sign-in. Apart from
// the OAuth client so that naming it loads none of the SDK.

/** `carte auth login <id>`. */
export const loginCommand = (serverId: string): string => `carte auth login ${serverId}`;
