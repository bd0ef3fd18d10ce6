/**
 * Translations of the server's error codes. Empty in English: the server's own English `message` is shown as it is
 * (a Spanish catalogue would give each code its text).
 */
export default {} as Record<string, string>;
