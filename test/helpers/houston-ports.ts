/** Port ids of the shipped port table around Houston and Galveston Bay, as the tests on real and built calls use them. */
export const HOUSTON = 9240;
export const GALVESTON = 9150;
export const TEXAS_CITY = 9160;
export const BAYTOWN = 9170;
