import { accountId } from './account/id.ts';
import type { Texts } from './en.ts';
import { lifecycleId } from './lifecycle/id.ts';
import { mfaId } from './mfa/id.ts';
import { passkeysId } from './passkeys/id.ts';

export const id: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'Memuat…',
    next: 'Berikutnya',
    back: 'Kembali',
    close: 'Tutup',
    showPassword: 'Tampilkan kata sandi',
    hidePassword: 'Sembunyikan kata sandi',
    required: 'Kolom ini wajib diisi',
    invalidEmail: 'Alamat email ini tampaknya tidak valid',
    networkError: 'Kami mengalami kendala saat menghubungi server kami. Silakan coba lagi.',
    contactSupport: 'Hubungi tim dukungan',
    backToLogin: 'Kembali ke halaman masuk',
    language: 'Bahasa',
    logoAlt: 'Logo {{name}}',
    errorSummary: 'Harap perbaiki kolom yang ditandai.',
  },
  titles: {
    login: 'Masuk',
    loginPassword: 'Masukkan kata sandi Anda',
    accountCreated: 'Akun berhasil dibuat',
    logout: 'Sedang keluar',
    authenticate: 'Sedang masuk',
    authenticated: 'Berhasil masuk',
    authorize: 'Melanjutkan ke aplikasi Anda',
    notFound: 'Halaman tidak ditemukan',
    unknownError: 'Terjadi kesalahan',
    loadFailed: 'Halaman tidak dimuat',
    accountDisabled: 'Akun dinonaktifkan',
    partnerSso: 'Masuk melalui mitra',
    requestRefused: 'Permintaan masuk ditolak',
    logoutRefused: 'Permintaan keluar ditolak',
  },
  login: {
    email: {
      heading: 'Masuk',
      intro: 'Masukkan alamat email akun Anda.',
      label: 'Email',
      remember: 'Ingat email saya',
      submit: 'Berikutnya',
    },
    password: {
      heading: 'Masukkan kata sandi Anda',
      back: 'Kembali ke email',
      change: 'Ubah email',
      signedInAs: 'Masuk sebagai {{email}}',
      label: 'Kata sandi',
      forgot: 'Lupa kata sandi?',
      submit: 'Masuk',
      trouble: 'Mengalami kendala saat masuk?',
    },
    signedIn: {
      notice: 'Anda sudah masuk sebagai {{email}}.',
      continue: 'Lanjutkan',
      logOut: 'Keluar',
      other: 'Untuk menggunakan akun lain, masukkan alamat emailnya di bawah ini.',
    },
    notices: {
      loggedOut: 'Anda telah keluar.',
      resetPassword: 'Kata sandi Anda telah diubah. Silakan masuk dengan kata sandi baru Anda.',
      accountCreated: 'Akun Anda telah dibuat. Silakan masuk untuk memulai.',
      reauthenticate: 'Demi keamanan Anda, silakan masukkan kembali kata sandi Anda.',
    },
    app: {
      back: 'Kembali ke {{app}}',
    },
    passkey: {
      signIn: 'Masuk dengan kunci sandi',
      instead: 'Gunakan kunci sandi',
      or: 'atau',
      waiting: 'Menunggu kunci sandi Anda…',
      errors: {
        cancelled:
          'Tidak ada kunci sandi yang digunakan. Coba lagi, atau lanjutkan dengan alamat email Anda.',
        failed:
          'Kunci sandi ini tidak dapat memasukkan Anda. Coba kunci sandi lain, atau lanjutkan dengan alamat email Anda.',
        expired: 'Permintaan kunci sandi telah kedaluwarsa. Silakan coba lagi.',
        unsupported:
          'Browser ini tidak dapat menggunakan kunci sandi di sini. Lanjutkan dengan alamat email Anda.',
        rateLimited: 'Terlalu banyak percobaan kunci sandi. Tunggu beberapa menit, lalu coba lagi.',
        removed:
          'Kunci sandi ini tidak lagi terdaftar di sini; mungkin sudah dihapus. Gunakan kunci sandi lain, atau lanjutkan dengan alamat email Anda.',
      },
    },
    errors: {
      invalidCredentials: 'Email atau kata sandi tidak valid. Silakan coba lagi.',
      /** After three failures in a row: the attempts left before the pause (the same with an account or without). */
      attemptsLeft: {
        other:
          'Email atau kata sandi tidak valid. Setelah {{count}} kali lagi percobaan gagal, masuk dengan alamat ini akan dijeda untuk sementara. Anda juga dapat mengatur ulang kata sandi.',
      },
      busy: 'Terlalu banyak proses masuk yang sedang diperiksa saat ini. Silakan coba lagi dalam beberapa detik.',
    },
    /** A refused attempt: the limit that refused it (docs/security.md), and when to try again. */
    limits: {
      address: 'Terlalu banyak percobaan dari jaringan Anda. Silakan coba lagi {{when}}.',
      account: 'Akun ini dikunci demi keamanan Anda. Coba lagi {{when}} atau atur ulang kata sandi Anda.',
      ready: 'Anda dapat mencoba lagi sekarang.',
      reset: 'Atur ulang kata sandi',
    },
  },
  authenticate: {
    loading: 'Sedang masuk ke akun Anda…',
  },
  authenticated: {
    loading: 'Mengarahkan Anda ke aplikasi…',
  },
  partnerSso: {
    loading: 'Sedang masuk ke akun Anda…',
    emailUnverified: {
      heading: 'Alamat ini belum dikonfirmasi',
      body: 'Aplikasi asal Anda belum mengonfirmasi alamat email Anda, sehingga kami tidak dapat memasukkan Anda dengannya. Konfirmasikan alamat Anda di aplikasi tersebut lalu coba lagi, atau masuk di sini dengan kata sandi Anda.',
      signIn: 'Ke halaman masuk',
    },
    networkDialog: {
      heading: 'Masalah koneksi',
      body: 'Kami mengalami kendala saat menghubungi server kami. Periksa koneksi Anda, lalu muat ulang untuk mencoba lagi.',
      reload: 'Muat ulang',
    },
  },
  logout: {
    loading: 'Sedang keluar dari akun Anda…',
    provider: {
      body: 'Anda sedang dikeluarkan dari akun. Jika tidak terjadi apa-apa, pilih Keluar.',
      submit: 'Keluar',
    },
  },
  errors: {
    notFound: {
      heading: 'Halaman tidak ditemukan',
      body: 'Halaman yang Anda cari tidak ada atau telah dipindahkan.',
    },
    unknown: {
      heading: 'Terjadi kesalahan',
      body: 'Kami tidak dapat menyelesaikan permintaan Anda. Silakan kembali ke halaman masuk dan coba lagi.',
    },
    loadFailed: {
      heading: 'Halaman ini tidak dapat dimuat',
      body: 'Sebagian halaman ini tidak dapat dimuat. Periksa koneksi Anda dan coba lagi.',
      retry: 'Coba lagi',
    },
    accountDisabled: {
      heading: 'Akun Anda dikunci',
      body: 'Demi keamanan Anda, akses masuk ke akun ini diblokir untuk sementara. Atur ulang kata sandi Anda atau hubungi tim dukungan untuk mendapatkan kembali akses.',
      reset: 'Atur ulang kata sandi',
    },
    provider: {
      next: 'Kembali ke aplikasi dan coba lagi. Jika masalah ini terus terjadi, hubungi tim dukungan aplikasi tersebut dan sebutkan kode kesalahannya.',
      codeLabel: 'Kode kesalahan',
      reasons: {
        invalid_request: 'Permintaan dari aplikasi tidak lengkap atau formatnya salah.',
        invalid_client: 'Aplikasi ini tidak terdaftar di layanan masuk ini.',
        invalid_redirect_uri:
          'Aplikasi meminta untuk mengembalikan Anda ke alamat yang tidak terdaftar untuk aplikasi tersebut.',
        unauthorized_client: 'Aplikasi ini tidak diizinkan untuk memasukkan Anda dengan cara ini.',
        invalid_scope: 'Aplikasi meminta akses yang tidak diberikan oleh layanan ini.',
        unsupported_response_type: 'Aplikasi meminta jenis jawaban yang tidak disediakan oleh layanan ini.',
        server_error: 'Layanan masuk tidak dapat menyelesaikan permintaan ini. Coba lagi sebentar lagi.',
        temporarily_unavailable:
          'Layanan masuk sedang tidak tersedia untuk sementara. Coba lagi sebentar lagi.',
        other: 'Permintaan dari aplikasi tidak dapat diselesaikan.',
      },
    },
  },
  lifecycle: lifecycleId,
  mfa: mfaId,
  passkeys: passkeysId,
  account: accountId,
};
