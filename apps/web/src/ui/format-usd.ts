/** US dollars to the cent or finer: prices per million tokens and a short run's cost go down to fractions of a cent. */
export const formatUsd = (usd: number): string => `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
