export { loadTexts } from './catalogues.ts';
export { en, type Texts } from './en.ts';
export { enCore } from './en-core.ts';
export { format } from './format.ts';
