import { downloadFile } from '@cambio/web-kit';

/** Saves text as a file the person downloads (the kit's blob link). */
export const downloadText = (name: string, text: string, type = 'text/plain'): void => downloadFile(name, text, type);
