import type { Texts } from '../en.ts';

export const passkeysId: Texts['passkeys'] = {
  titles: {
    offer: 'Masuk lebih cepat lain kali',
    stepUp: 'Konfirmasi dengan kunci sandi',
    created: 'Kunci sandi dibuat',
  },
  offer: {
    heading: 'Masuk lebih cepat lain kali dengan kunci sandi',
    body: 'Dengan kunci sandi, Anda masuk menggunakan sidik jari, wajah, atau kunci layar, bukan kata sandi. Kunci sandi disimpan di perangkat atau pengelola kata sandi Anda dan hanya berfungsi di situs web ini, sehingga tidak ada yang bisa mengelabui Anda untuk menyerahkannya.',
    create: 'Buat kunci sandi',
    notNow: 'Lain kali',
    created: 'Kunci sandi Anda sudah siap. Lain kali, pilih kunci sandi ini saat masuk.',
    continue: 'Lanjutkan',
  },
  stepUp: {
    heading: 'Konfirmasi dengan kunci sandi',
    body: '{{app}} meminta Anda mengonfirmasi dengan kunci sandi atau kunci keamanan. Kata sandi Anda tidak dapat digunakan untuk ini.',
    bodyNoApp:
      'Aplikasi ini meminta Anda mengonfirmasi dengan kunci sandi atau kunci keamanan. Kata sandi Anda tidak dapat digunakan untuk ini.',
    confirm: 'Konfirmasi dengan kunci sandi',
    none: 'Akun Anda belum memiliki kunci sandi atau kunci keamanan untuk situs web ini. Tambahkan di halaman akun Anda, lalu coba lagi dari aplikasi.',
    account: 'Buka halaman akun Anda',
  },
  mfa: {
    heading: 'Konfirmasi bahwa ini Anda',
    intro: 'Gunakan kunci sandi atau kunci keamanan yang telah Anda tambahkan ke akun Anda.',
    elsewhere:
      'Kunci sandi atau kunci keamanan Anda hanya berfungsi di situs web tempat Anda membuatnya: {{domains}}. Masuk di sana untuk menggunakannya.',
    option: 'Gunakan kunci sandi atau kunci keamanan Anda',
  },
  waiting: 'Menunggu kunci sandi Anda…',
  errors: {
    cancelled: 'Tidak ada kunci sandi yang digunakan. Coba lagi jika Anda sudah siap.',
    exists: 'Perangkat ini sudah menyimpan kunci sandi untuk akun Anda.',
    limit:
      'Akun Anda sudah memiliki jumlah kunci sandi maksimum. Hapus salah satunya di halaman akun Anda untuk menambahkan yang lain.',
    failed:
      'Kunci sandi atau kunci keamanan ini tidak dapat diverifikasi. Coba lagi, atau gunakan yang lain.',
    expired: 'Permintaan telah kedaluwarsa. Silakan coba lagi.',
    unsupported: 'Browser atau perangkat ini tidak dapat menggunakan kunci sandi di sini.',
    rateLimited: 'Terlalu banyak percobaan kunci sandi. Tunggu beberapa menit, lalu coba lagi.',
    notFound: 'Akun Anda tidak memiliki kunci sandi atau kunci keamanan yang berfungsi di situs web ini.',
    signInAgain:
      'Proses masuk Anda sudah terlalu lama untuk menambahkan kunci sandi. Lanjutkan, dan tambahkan nanti di halaman akun Anda.',
    unknown: 'Terjadi kesalahan. Silakan coba lagi.',
  },
};
