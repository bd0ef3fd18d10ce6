/** The subscription feature's texts (spec sections 2, 4, 8 and 9, word for word). */
export default {
};
