import type { Locale } from '@keycard/contract/user-state';

/**
 * The provider's error page, when an app's redirect differs from a registered one only in its
 * port (issue 19): said in words, in the page's language, on the server's first paint and by
 * the portal's screen that takes it over. `{{requested}}` and `{{registered}}` are addresses.
 */
export const redirectPortHint: Readonly<Record<Locale, string>> = {
  en: 'The app asked to come back to {{requested}}, but the address registered for it is {{registered}}: they differ only in the port. A redirect address must be registered exactly, port included: correct the app’s client in the Keycard console, or start the app or Keycard on the port that was registered.',
  de: 'Die App wollte zu {{requested}} zurückkehren, registriert ist aber {{registered}}: Die Adressen unterscheiden sich nur im Port. Eine Weiterleitungsadresse muss genau registriert sein, Port eingeschlossen: Korrigieren Sie den Client der App in der Keycard-Konsole oder starten Sie die App oder Keycard auf dem registrierten Port.',
  es: 'La aplicación pidió volver a {{requested}}, pero la dirección registrada es {{registered}}: solo cambia el puerto. Una dirección de redirección debe registrarse exactamente, puerto incluido: corrija el cliente de la aplicación en la consola de Keycard o inicie la aplicación o Keycard en el puerto registrado.',
  fr: 'L’application a demandé à revenir à {{requested}}, mais l’adresse enregistrée est {{registered}} : seul le port diffère. Une adresse de redirection doit être enregistrée exactement, port compris : corrigez le client de l’application dans la console Keycard, ou lancez l’application ou Keycard sur le port enregistré.',
  id: 'Aplikasi meminta kembali ke {{requested}}, tetapi alamat yang terdaftar adalah {{registered}}: keduanya hanya berbeda port. Alamat pengalihan harus terdaftar persis, termasuk port: perbaiki klien aplikasi di konsol Keycard, atau jalankan aplikasi atau Keycard pada port yang terdaftar.',
  it: 'L’app ha chiesto di tornare a {{requested}}, ma l’indirizzo registrato è {{registered}}: differiscono solo per la porta. Un indirizzo di reindirizzamento va registrato esattamente, porta compresa: correggi il client dell’app nella console Keycard, oppure avvia l’app o Keycard sulla porta registrata.',
  pt: 'A aplicação pediu para voltar a {{requested}}, mas o endereço registado é {{registered}}: diferem apenas na porta. Um endereço de redirecionamento tem de ser registado exatamente, porta incluída: corrija o cliente da aplicação na consola Keycard, ou inicie a aplicação ou a Keycard na porta registada.',
  th: 'แอปขอกลับไปที่ {{requested}} แต่ที่อยู่ที่ลงทะเบียนไว้คือ {{registered}} ซึ่งต่างกันเพียงพอร์ต ที่อยู่สำหรับเปลี่ยนเส้นทางต้องลงทะเบียนให้ตรงทุกตัวรวมทั้งพอร์ต โปรดแก้ไขไคลเอนต์ของแอปในคอนโซล Keycard หรือเริ่มแอปหรือ Keycard บนพอร์ตที่ลงทะเบียนไว้',
};

/** The hint with its two addresses filled in. */
export function fillRedirectPortHint(
  locale: Locale,
  addresses: { requested: string; registered: string },
): string {
  return redirectPortHint[locale]
    .replace(/\{\{requested\}\}/g, addresses.requested)
    .replace(/\{\{registered\}\}/g, addresses.registered);
}
