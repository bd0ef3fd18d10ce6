/**
 * Translations of the server's error codes. Empty in English: the server's own English `message` is shown as it is
 * (the Spanish catalogue gives each code its text). A refusal's missing step is named by its link, in both languages
 * (features/exchange/taker.ts refusalStep, `exchange:refusal.*`).
 */
export default {} as Record<string, string>;
