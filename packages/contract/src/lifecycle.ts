// Account lifecycle contract (activation, registration, reset, e-mail verification, expiry).
export {};
