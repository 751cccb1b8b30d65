// Multi-factor authentication contract.
export {};
