import type { Locale } from '@keycard/contract/user-state';
import type { Translation } from '../translator.ts';

/**
 * The console's texts for a theme's font, corners, logo size, background and dark scheme
 * (issue 19 item 11, apps/console/src/features/theme/theme-extras.tsx), every language here:
 * a few lines each, kept apart from the catalogues another change is editing.
 */
const en = {
  heading: 'Font, shape, background and dark scheme',
  intro: 'Left as they are, the sign-in page keeps its own look.',
  font: 'Font',
  fontHint:
    'System uses the fonts already on the visitor’s device. The others are served by Keycard itself, never by a font service, and only the one picked is loaded. Thai pages keep Noto Sans Thai.',
  fonts: {
    system: 'System (the portal’s own)',
    humanist: 'Source Sans 3 (humanist sans-serif)',
    serif: 'Source Serif 4 (serif)',
    rounded: 'Nunito (rounded)',
  },
  cornerRadius: 'Corner radius in pixels',
  logoHeight: 'Logo height in pixels',
  range: 'A whole number from {{min}} to {{max}}; the portal’s own is {{default}}.',
  outOfRange: 'Enter a whole number from {{min}} to {{max}}.',
  backgroundUrl: 'Background image URL (optional)',
  backgroundHint: 'Shown behind the page around the card; the card stays solid, so its text reads.',
  uploadBackground: 'Upload a background image (SVG, PNG or WebP, at most 256 KiB)',
  uploaded: 'The background image was uploaded and is in use.',
  darkScheme: 'Offer a dark scheme to devices set to dark mode',
  darkHint:
    'Drawn from your colours: the page and the card darkened, text in your palette’s lightest colour, links and focus rings lightened until they read.',
  darkPasses: 'Every pair of the dark scheme meets WCAG 2.2 AA ({{count}} checked).',
  darkFails: 'The dark scheme cannot be offered with these colours:',
  darkPair: '{{pair}}: {{ratio}} : 1, needs {{required}} : 1.',
  darkFix: 'Add a light colour (such as #ffffff) to the palette, or leave the dark scheme off.',
  pairs: {
    text: 'Text on the card',
    secondaryText: 'Text on the page',
    muted: 'Secondary text',
    link: 'Links',
    error: 'Error messages',
    success: 'Success messages',
    focus: 'Focus rings',
    primaryEdge: 'Button edges',
    border: 'Field borders',
  },
};
export type ThemeExtrasTexts = typeof en;

const de: Translation<ThemeExtrasTexts> = {
  heading: 'Schrift, Form, Hintergrund und dunkles Farbschema',
  intro: 'Unverändert behält die Anmeldeseite ihr eigenes Aussehen.',
  font: 'Schrift',
  fontHint:
    'System nutzt die Schriften, die schon auf dem Gerät der Besucher sind. Die anderen liefert Keycard selbst aus, nie ein Schriftendienst, und geladen wird nur die gewählte. Thailändische Seiten behalten Noto Sans Thai.',
  fonts: {
    system: 'System (die des Portals)',
    humanist: 'Source Sans 3 (humanistische Grotesk)',
    serif: 'Source Serif 4 (Serifenschrift)',
    rounded: 'Nunito (abgerundet)',
  },
  cornerRadius: 'Eckenradius in Pixeln',
  logoHeight: 'Logohöhe in Pixeln',
  range: 'Eine ganze Zahl von {{min}} bis {{max}}; das Portal nutzt {{default}}.',
  outOfRange: 'Geben Sie eine ganze Zahl von {{min}} bis {{max}} ein.',
  backgroundUrl: 'URL des Hintergrundbilds (optional)',
  backgroundHint:
    'Erscheint hinter der Seite um die Karte; die Karte bleibt deckend, ihr Text bleibt lesbar.',
  uploadBackground: 'Hintergrundbild hochladen (SVG, PNG oder WebP, höchstens 256 KiB)',
  uploaded: 'Das Hintergrundbild wurde hochgeladen und wird verwendet.',
  darkScheme: 'Geräten im Dunkelmodus ein dunkles Farbschema anbieten',
  darkHint:
    'Aus Ihren Farben abgeleitet: Seite und Karte abgedunkelt, Text in der hellsten Farbe Ihrer Palette, Links und Fokusrahmen aufgehellt, bis sie lesbar sind.',
  darkPasses: 'Jedes Farbpaar des dunklen Schemas erfüllt WCAG 2.2 AA ({{count}} geprüft).',
  darkFails: 'Mit diesen Farben kann das dunkle Schema nicht angeboten werden:',
  darkPair: '{{pair}}: {{ratio}} : 1, nötig sind {{required}} : 1.',
  darkFix:
    'Fügen Sie der Palette eine helle Farbe hinzu (etwa #ffffff) oder lassen Sie das dunkle Schema aus.',
  pairs: {
    text: 'Text auf der Karte',
    secondaryText: 'Text auf der Seite',
    muted: 'Nebentext',
    link: 'Links',
    error: 'Fehlermeldungen',
    success: 'Erfolgsmeldungen',
    focus: 'Fokusrahmen',
    primaryEdge: 'Schaltflächenränder',
    border: 'Feldränder',
  },
};

const es: Translation<ThemeExtrasTexts> = {
  heading: 'Tipografía, forma, fondo y esquema oscuro',
  intro: 'Si no los cambia, la página de inicio de sesión conserva su aspecto propio.',
  font: 'Tipografía',
  fontHint:
    'Sistema usa las fuentes que ya están en el dispositivo del visitante. Las demás las sirve el propio Keycard, nunca un servicio de fuentes, y solo se carga la elegida. Las páginas en tailandés conservan Noto Sans Thai.',
  fonts: {
    system: 'Sistema (la del portal)',
    humanist: 'Source Sans 3 (sans serif humanista)',
    serif: 'Source Serif 4 (con serifa)',
    rounded: 'Nunito (redondeada)',
  },
  cornerRadius: 'Radio de las esquinas en píxeles',
  logoHeight: 'Altura del logotipo en píxeles',
  range: 'Un número entero de {{min}} a {{max}}; el del portal es {{default}}.',
  outOfRange: 'Introduzca un número entero de {{min}} a {{max}}.',
  backgroundUrl: 'URL de la imagen de fondo (opcional)',
  backgroundHint:
    'Se muestra detrás de la página, alrededor de la tarjeta; la tarjeta sigue opaca y su texto se lee.',
  uploadBackground: 'Subir una imagen de fondo (SVG, PNG o WebP, 256 KiB como máximo)',
  uploaded: 'La imagen de fondo se ha subido y ya se usa.',
  darkScheme: 'Ofrecer un esquema oscuro a los dispositivos en modo oscuro',
  darkHint:
    'Se obtiene de sus colores: la página y la tarjeta oscurecidas, el texto en el color más claro de su paleta, enlaces y marcos de foco aclarados hasta que se lean.',
  darkPasses: 'Cada par del esquema oscuro cumple WCAG 2.2 AA ({{count}} comprobados).',
  darkFails: 'Con estos colores no se puede ofrecer el esquema oscuro:',
  darkPair: '{{pair}}: {{ratio}} : 1, se necesita {{required}} : 1.',
  darkFix: 'Añada un color claro (como #ffffff) a la paleta o deje el esquema oscuro desactivado.',
  pairs: {
    text: 'Texto sobre la tarjeta',
    secondaryText: 'Texto sobre la página',
    muted: 'Texto secundario',
    link: 'Enlaces',
    error: 'Mensajes de error',
    success: 'Mensajes de éxito',
    focus: 'Marcos de foco',
    primaryEdge: 'Bordes de los botones',
    border: 'Bordes de los campos',
  },
};

const fr: Translation<ThemeExtrasTexts> = {
  heading: 'Police, forme, arrière-plan et thème sombre',
  intro: 'Sans modification, la page de connexion garde son apparence d’origine.',
  font: 'Police',
  fontHint:
    'Système utilise les polices déjà présentes sur l’appareil du visiteur. Les autres sont servies par Keycard lui-même, jamais par un service de polices, et seule celle choisie est chargée. Les pages en thaï gardent Noto Sans Thai.',
  fonts: {
    system: 'Système (celle du portail)',
    humanist: 'Source Sans 3 (sans empattement humaniste)',
    serif: 'Source Serif 4 (avec empattements)',
    rounded: 'Nunito (arrondie)',
  },
  cornerRadius: 'Rayon des coins en pixels',
  logoHeight: 'Hauteur du logo en pixels',
  range: 'Un nombre entier de {{min}} à {{max}} ; celui du portail est {{default}}.',
  outOfRange: 'Saisissez un nombre entier de {{min}} à {{max}}.',
  backgroundUrl: 'URL de l’image d’arrière-plan (facultatif)',
  backgroundHint:
    'Affichée derrière la page autour de la carte ; la carte reste opaque, son texte reste lisible.',
  uploadBackground: 'Téléverser une image d’arrière-plan (SVG, PNG ou WebP, 256 Kio au plus)',
  uploaded: 'L’image d’arrière-plan a été téléversée et est utilisée.',
  darkScheme: 'Proposer un thème sombre aux appareils en mode sombre',
  darkHint:
    'Tiré de vos couleurs : la page et la carte assombries, le texte dans la couleur la plus claire de votre palette, liens et contours de focus éclaircis jusqu’à être lisibles.',
  darkPasses: 'Chaque paire du thème sombre respecte WCAG 2.2 AA ({{count}} vérifiées).',
  darkFails: 'Le thème sombre ne peut pas être proposé avec ces couleurs :',
  darkPair: '{{pair}} : {{ratio}} : 1, il faut {{required}} : 1.',
  darkFix: 'Ajoutez une couleur claire (comme #ffffff) à la palette, ou laissez le thème sombre désactivé.',
  pairs: {
    text: 'Texte sur la carte',
    secondaryText: 'Texte sur la page',
    muted: 'Texte secondaire',
    link: 'Liens',
    error: 'Messages d’erreur',
    success: 'Messages de réussite',
    focus: 'Contours de focus',
    primaryEdge: 'Bords des boutons',
    border: 'Bords des champs',
  },
};

const id: Translation<ThemeExtrasTexts> = {
  heading: 'Huruf, bentuk, latar belakang, dan skema gelap',
  intro: 'Jika dibiarkan, halaman masuk tetap memakai tampilannya sendiri.',
  font: 'Huruf',
  fontHint:
    'Sistem memakai huruf yang sudah ada di perangkat pengunjung. Yang lain disajikan oleh Keycard sendiri, tidak pernah oleh layanan huruf, dan hanya yang dipilih yang dimuat. Halaman berbahasa Thai tetap memakai Noto Sans Thai.',
  fonts: {
    system: 'Sistem (milik portal)',
    humanist: 'Source Sans 3 (sans-serif humanis)',
    serif: 'Source Serif 4 (berkait)',
    rounded: 'Nunito (membulat)',
  },
  cornerRadius: 'Radius sudut dalam piksel',
  logoHeight: 'Tinggi logo dalam piksel',
  range: 'Bilangan bulat dari {{min}} sampai {{max}}; bawaan portal {{default}}.',
  outOfRange: 'Masukkan bilangan bulat dari {{min}} sampai {{max}}.',
  backgroundUrl: 'URL gambar latar belakang (opsional)',
  backgroundHint: 'Tampil di belakang halaman di sekitar kartu; kartu tetap padat sehingga teksnya terbaca.',
  uploadBackground: 'Unggah gambar latar belakang (SVG, PNG, atau WebP, paling besar 256 KiB)',
  uploaded: 'Gambar latar belakang telah diunggah dan dipakai.',
  darkScheme: 'Tawarkan skema gelap untuk perangkat dalam mode gelap',
  darkHint:
    'Diambil dari warna Anda: halaman dan kartu digelapkan, teks memakai warna paling terang di palet Anda, tautan dan bingkai fokus dicerahkan sampai terbaca.',
  darkPasses: 'Setiap pasangan skema gelap memenuhi WCAG 2.2 AA ({{count}} diperiksa).',
  darkFails: 'Skema gelap tidak dapat ditawarkan dengan warna ini:',
  darkPair: '{{pair}}: {{ratio}} : 1, perlu {{required}} : 1.',
  darkFix: 'Tambahkan warna terang (misalnya #ffffff) ke palet, atau biarkan skema gelap mati.',
  pairs: {
    text: 'Teks di kartu',
    secondaryText: 'Teks di halaman',
    muted: 'Teks sekunder',
    link: 'Tautan',
    error: 'Pesan kesalahan',
    success: 'Pesan berhasil',
    focus: 'Bingkai fokus',
    primaryEdge: 'Tepi tombol',
    border: 'Tepi kolom',
  },
};

const it: Translation<ThemeExtrasTexts> = {
  heading: 'Carattere, forma, sfondo e schema scuro',
  intro: 'Se non li cambia, la pagina di accesso mantiene il suo aspetto.',
  font: 'Carattere',
  fontHint:
    'Sistema usa i caratteri già presenti sul dispositivo del visitatore. Gli altri sono forniti da Keycard stesso, mai da un servizio di caratteri, e si carica solo quello scelto. Le pagine in tailandese mantengono Noto Sans Thai.',
  fonts: {
    system: 'Sistema (quello del portale)',
    humanist: 'Source Sans 3 (sans serif umanistico)',
    serif: 'Source Serif 4 (con grazie)',
    rounded: 'Nunito (arrotondato)',
  },
  cornerRadius: 'Raggio degli angoli in pixel',
  logoHeight: 'Altezza del logo in pixel',
  range: 'Un numero intero da {{min}} a {{max}}; quello del portale è {{default}}.',
  outOfRange: 'Inserisca un numero intero da {{min}} a {{max}}.',
  backgroundUrl: 'URL dell’immagine di sfondo (facoltativo)',
  backgroundHint:
    'Mostrata dietro la pagina intorno alla scheda; la scheda resta piena e il suo testo leggibile.',
  uploadBackground: 'Carica un’immagine di sfondo (SVG, PNG o WebP, al massimo 256 KiB)',
  uploaded: 'L’immagine di sfondo è stata caricata ed è in uso.',
  darkScheme: 'Offri uno schema scuro ai dispositivi in modalità scura',
  darkHint:
    'Ricavato dai suoi colori: pagina e scheda scurite, testo nel colore più chiaro della palette, link e contorni di focus schiariti finché si leggono.',
  darkPasses: 'Ogni coppia dello schema scuro rispetta WCAG 2.2 AA ({{count}} verificate).',
  darkFails: 'Con questi colori lo schema scuro non può essere offerto:',
  darkPair: '{{pair}}: {{ratio}} : 1, serve {{required}} : 1.',
  darkFix: 'Aggiunga un colore chiaro (come #ffffff) alla palette, oppure lasci spento lo schema scuro.',
  pairs: {
    text: 'Testo sulla scheda',
    secondaryText: 'Testo sulla pagina',
    muted: 'Testo secondario',
    link: 'Link',
    error: 'Messaggi di errore',
    success: 'Messaggi di conferma',
    focus: 'Contorni di focus',
    primaryEdge: 'Bordi dei pulsanti',
    border: 'Bordi dei campi',
  },
};

const pt: Translation<ThemeExtrasTexts> = {
  heading: 'Fonte, forma, fundo e esquema escuro',
  intro: 'Se não forem alterados, a página de início de sessão mantém o seu aspeto próprio.',
  font: 'Fonte',
  fontHint:
    'Sistema usa as fontes que já estão no dispositivo do visitante. As outras são servidas pelo próprio Keycard, nunca por um serviço de fontes, e só a escolhida é carregada. As páginas em tailandês mantêm a Noto Sans Thai.',
  fonts: {
    system: 'Sistema (a do portal)',
    humanist: 'Source Sans 3 (sem serifa humanista)',
    serif: 'Source Serif 4 (com serifa)',
    rounded: 'Nunito (arredondada)',
  },
  cornerRadius: 'Raio dos cantos em píxeis',
  logoHeight: 'Altura do logótipo em píxeis',
  range: 'Um número inteiro de {{min}} a {{max}}; o do portal é {{default}}.',
  outOfRange: 'Introduza um número inteiro de {{min}} a {{max}}.',
  backgroundUrl: 'URL da imagem de fundo (opcional)',
  backgroundHint:
    'Mostrada atrás da página, à volta do cartão; o cartão continua opaco e o seu texto legível.',
  uploadBackground: 'Carregar uma imagem de fundo (SVG, PNG ou WebP, no máximo 256 KiB)',
  uploaded: 'A imagem de fundo foi carregada e está em uso.',
  darkScheme: 'Oferecer um esquema escuro aos dispositivos em modo escuro',
  darkHint:
    'Obtido das suas cores: a página e o cartão escurecidos, o texto na cor mais clara da sua paleta, ligações e contornos de foco clareados até serem legíveis.',
  darkPasses: 'Cada par do esquema escuro cumpre a WCAG 2.2 AA ({{count}} verificados).',
  darkFails: 'Com estas cores não é possível oferecer o esquema escuro:',
  darkPair: '{{pair}}: {{ratio}} : 1, são precisos {{required}} : 1.',
  darkFix: 'Acrescente uma cor clara (como #ffffff) à paleta, ou deixe o esquema escuro desligado.',
  pairs: {
    text: 'Texto no cartão',
    secondaryText: 'Texto na página',
    muted: 'Texto secundário',
    link: 'Ligações',
    error: 'Mensagens de erro',
    success: 'Mensagens de sucesso',
    focus: 'Contornos de foco',
    primaryEdge: 'Margens dos botões',
    border: 'Margens dos campos',
  },
};

const th: Translation<ThemeExtrasTexts> = {
  heading: 'แบบอักษร รูปทรง ภาพพื้นหลัง และโหมดมืด',
  intro: 'หากไม่เปลี่ยน หน้าลงชื่อเข้าใช้จะคงรูปลักษณ์เดิมไว้',
  font: 'แบบอักษร',
  fontHint:
    'แบบระบบใช้แบบอักษรที่มีอยู่แล้วในอุปกรณ์ของผู้เข้าชม แบบอื่น Keycard ส่งให้เองโดยตรง ไม่ผ่านบริการแบบอักษรภายนอก และโหลดเฉพาะแบบที่เลือก หน้าภาษาไทยยังคงใช้ Noto Sans Thai',
  fonts: {
    system: 'ระบบ (แบบของพอร์ทัล)',
    humanist: 'Source Sans 3 (ไม่มีเชิงแบบฮิวแมนิสต์)',
    serif: 'Source Serif 4 (มีเชิง)',
    rounded: 'Nunito (หัวมน)',
  },
  cornerRadius: 'รัศมีมุมเป็นพิกเซล',
  logoHeight: 'ความสูงของโลโก้เป็นพิกเซล',
  range: 'จำนวนเต็มตั้งแต่ {{min}} ถึง {{max}} ค่าเดิมของพอร์ทัลคือ {{default}}',
  outOfRange: 'กรอกจำนวนเต็มตั้งแต่ {{min}} ถึง {{max}}',
  backgroundUrl: 'URL ของภาพพื้นหลัง (ไม่บังคับ)',
  backgroundHint: 'แสดงอยู่หลังหน้ารอบการ์ด การ์ดยังคงทึบ ข้อความบนการ์ดจึงอ่านได้',
  uploadBackground: 'อัปโหลดภาพพื้นหลัง (SVG, PNG หรือ WebP ไม่เกิน 256 KiB)',
  uploaded: 'อัปโหลดภาพพื้นหลังแล้วและใช้งานอยู่',
  darkScheme: 'เสนอโหมดมืดให้อุปกรณ์ที่ตั้งค่าโหมดมืดไว้',
  darkHint: 'สร้างจากสีของคุณ: หน้าและการ์ดถูกทำให้มืดลง ข้อความใช้สีที่สว่างที่สุดในชุดสี ลิงก์และกรอบโฟกัสถูกทำให้สว่างขึ้นจนอ่านได้',
  darkPasses: 'ทุกคู่สีของโหมดมืดผ่าน WCAG 2.2 AA (ตรวจแล้ว {{count}} คู่)',
  darkFails: 'ไม่สามารถเสนอโหมดมืดด้วยสีชุดนี้ได้:',
  darkPair: '{{pair}}: {{ratio}} : 1 ต้องการ {{required}} : 1',
  darkFix: 'เพิ่มสีอ่อน (เช่น #ffffff) ลงในชุดสี หรือปิดโหมดมืดไว้',
  pairs: {
    text: 'ข้อความบนการ์ด',
    secondaryText: 'ข้อความบนหน้า',
    muted: 'ข้อความรอง',
    link: 'ลิงก์',
    error: 'ข้อความแจ้งข้อผิดพลาด',
    success: 'ข้อความแจ้งความสำเร็จ',
    focus: 'กรอบโฟกัส',
    primaryEdge: 'ขอบปุ่ม',
    border: 'ขอบช่องกรอก',
  },
};

export const themeExtrasTexts: Record<Locale, ThemeExtrasTexts> = { en, de, es, fr, id, it, pt, th };

/** A text with its {{name}} placeholders filled. */
export function fillText(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
