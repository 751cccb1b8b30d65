import type { SecurityMailTexts } from './en.ts';

export const securityMailId: SecurityMailTexts = {
  passwordChanged: {
    subject: 'Kata sandi {{tenant}} Anda telah diubah',
    heading: 'Kata sandi Anda telah diubah',
    body: 'Kata sandi akun {{tenant}} Anda baru saja diubah. Sesi Anda yang lain telah dikeluarkan.',
  },
  passkeyAdded: {
    subject: 'Passkey ditambahkan ke akun {{tenant}} Anda',
    heading: 'Passkey telah ditambahkan',
    body: 'Passkey “{{name}}” sekarang dapat digunakan untuk masuk ke akun {{tenant}} Anda.',
  },
  passkeyRemoved: {
    subject: 'Passkey dihapus dari akun {{tenant}} Anda',
    heading: 'Passkey telah dihapus',
    body: 'Passkey “{{name}}” tidak dapat lagi digunakan untuk masuk ke akun {{tenant}} Anda.',
  },
  factorAdded: {
    subject: 'Langkah masuk ditambahkan ke akun {{tenant}} Anda',
    heading: 'Langkah masuk kedua telah disiapkan',
    body: 'Masuk ke akun {{tenant}} Anda kini meminta langkah kedua: {{factor}}.',
  },
  factorRemoved: {
    subject: 'Langkah masuk dihapus dari akun {{tenant}} Anda',
    heading: 'Langkah masuk kedua telah dihapus',
    body: 'Langkah masuk kedua “{{factor}}” telah dihapus dari akun {{tenant}} Anda.',
  },
  recoveryCodesRenewed: {
    subject: 'Kode pemulihan baru untuk akun {{tenant}} Anda',
    heading: 'Kode pemulihan baru telah dibuat',
    body: 'Kode pemulihan baru telah dibuat untuk akun {{tenant}} Anda. Kode yang lama tidak berlaku lagi.',
  },
  partnerLinked: {
    subject: '{{partner}} telah ditautkan ke akun {{tenant}} Anda',
    heading: 'Mitra telah ditautkan',
    body: '{{partner}} sekarang dapat memasukkan Anda ke akun {{tenant}} Anda.',
  },
  newBrowserSignIn: {
    subject: 'Aktivitas masuk baru ke akun {{tenant}} Anda',
    heading: 'Browser baru telah masuk',
    body: 'Seseorang masuk ke akun {{tenant}} Anda dari browser yang belum pernah digunakan sebelumnya.',
  },
  factors: { authenticatorApp: 'aplikasi autentikator', phone: 'telepon', mobileApp: 'aplikasi seluler' },
  when: 'Waktu',
  browser: 'Browser',
  browserOn: '{{browser}} di {{os}}',
  address: 'Alamat',
  unknown: 'tidak diketahui',
  ifYou: 'Jika ini Anda, tidak ada lagi yang perlu dilakukan.',
  notYou:
    'Jika ini bukan Anda, setel ulang kata sandi Anda sekarang lalu periksa akun Anda: orang lain mungkin mengetahui kata sandi Anda.',
  notYouAction: 'Ini bukan saya',
  accountAction: 'Periksa akun Anda',
  linkHint: 'Jika tombol tidak berfungsi, salin tautan ini ke browser Anda:',
  footer: 'Email ini dikirim oleh {{tenant}} karena berkaitan dengan keamanan akun Anda.',
};
