import type { Texts } from '../en.ts';

export const lifecycleId: Texts['lifecycle'] = {
  titles: {
    activate: 'Aktifkan akun Anda',
    register: 'Buat akun Anda',
    activateSent: 'Email aktivasi terkirim',
    activateExpired: 'Tautan aktivasi kedaluwarsa',
    resetPassword: 'Atur ulang kata sandi Anda',
    resetPasswordSent: 'Email atur ulang kata sandi terkirim',
    resetPasswordUpdate: 'Tetapkan kata sandi baru',
    verifyEmail: 'Verifikasi email Anda',
    verifyExpired: 'Tautan verifikasi kedaluwarsa',
    passwordExpired: 'Kata sandi kedaluwarsa',
    passwordWillExpire: 'Kata sandi akan segera kedaluwarsa',
  },
  passwordForm: {
    password: 'Kata sandi baru',
    confirmPassword: 'Konfirmasi kata sandi baru',
    hint: 'Gunakan minimal 8 karakter dengan huruf besar, huruf kecil, dan angka.',
    secretQuestion: 'Pertanyaan keamanan',
    chooseQuestion: 'Pilih pertanyaan',
    secretAnswer: 'Jawaban keamanan',
    errors: {
      format: 'Kata sandi harus berisi huruf besar dan huruf kecil, angka, serta minimal 8 karakter',
      mismatch: 'Kata sandi tidak cocok',
      history: 'Kata sandi baru Anda tidak boleh sama dengan empat kata sandi terakhir Anda.',
      leaked:
        'Kata sandi ini muncul dalam kebocoran data yang diketahui dan tidak aman. Silakan pilih kata sandi lain.',
    },
  },
  secretQuestions: {
    motherMaidenName: 'Siapa nama gadis ibu Anda?',
    fatherMiddleName: 'Apa nama tengah ayah Anda?',
    townWhereBorn: 'Di kota mana Anda lahir?',
    firstOverseasTrip: 'Ke mana tujuan perjalanan pertama Anda ke luar negeri?',
    firstSchool: 'Apa nama sekolah pertama Anda?',
    firstPetName: 'Siapa nama hewan peliharaan pertama Anda?',
  },
  activate: {
    checking: 'Memeriksa tautan aktivasi Anda…',
    heading: 'Aktifkan akun Anda',
    intro:
      'Pilih kata sandi dan pertanyaan keamanan untuk {{email}}. Jika Anda menghubungi kami untuk meminta bantuan, kami akan menanyakan pertanyaan ini untuk memastikan bahwa itu memang Anda. Kami tidak pernah meminta kata sandi Anda.',
    submit: 'Aktifkan akun',
  },
  register: {
    checking: 'Memeriksa tautan pendaftaran Anda…',
    heading: 'Buat akun Anda',
    intro: 'Pilih kata sandi dan pertanyaan keamanan untuk {{email}}.',
    submit: 'Buat akun',
    signingIn: 'Sedang memproses masuk…',
    invalid: {
      heading: 'Tautan pendaftaran ini tidak valid',
      body: 'Tautan ini mungkin telah kedaluwarsa atau sudah digunakan. Mintalah tautan baru kepada orang yang mengirimkannya kepada Anda.',
    },
  },
  activateSent: {
    heading: 'Periksa kotak masuk Anda',
    body: {
      other:
        'Jika akun Anda sedang menunggu aktivasi, kami telah mengirimkan tautan aktivasi baru ke alamat email Anda. Tautan ini berlaku selama {{count}} hari.',
    },
    help: 'Tidak menerima email? Periksa folder spam Anda atau hubungi tim dukungan.',
  },
  activateExpired: {
    heading: 'Tautan aktivasi ini telah kedaluwarsa',
    body: 'Masukkan alamat email Anda dan kami akan mengirimkan tautan aktivasi baru.',
    email: 'Email',
    submit: 'Kirim tautan baru',
  },
  resetRequest: {
    heading: 'Atur ulang kata sandi Anda',
    intro:
      'Masukkan alamat email akun Anda dan kami akan mengirimkan tautan untuk mengatur ulang kata sandi Anda.',
    email: 'Email',
    submit: 'Kirim tautan atur ulang',
    tokenExpired: 'Tautan atur ulang kata sandi tersebut telah kedaluwarsa. Silakan minta tautan baru.',
  },
  resetSent: {
    heading: 'Periksa kotak masuk Anda',
    body: {
      other:
        'Jika ada akun untuk {{email}}, kami telah mengirimkan tautan untuk mengatur ulang kata sandinya. Tautan ini berlaku selama {{count}} menit.',
    },
    bodyWithoutEmail: {
      other:
        'Jika ada akun untuk alamat yang Anda masukkan, kami telah mengirimkan tautan untuk mengatur ulang kata sandinya. Tautan ini berlaku selama {{count}} menit.',
    },
    resend: 'Kirim ulang email',
    resent: 'Kami telah mengirim ulang email tersebut.',
    trouble: 'Mengalami kendala saat masuk?',
  },
  resetUpdate: {
    checking: 'Memeriksa tautan Anda…',
    heading: 'Tetapkan kata sandi baru',
    intro: 'Pilih kata sandi baru untuk {{email}}.',
    submit: 'Ubah kata sandi',
  },
  verifyEmail: {
    checking: 'Memeriksa tautan verifikasi Anda…',
    heading: 'Verifikasi email Anda',
    intro: 'Masukkan alamat email Anda untuk mengonfirmasi bahwa alamat tersebut milik Anda.',
    email: 'Email',
    submit: 'Verifikasi email',
    mismatch: 'Email ini tidak cocok dengan data kami. Silakan coba lagi.',
    success: 'Alamat email Anda telah diverifikasi. Sedang mengalihkan Anda…',
  },
  verifyExpired: {
    heading: 'Tautan verifikasi ini telah kedaluwarsa',
    body: {
      other:
        'Tautan verifikasi berlaku selama {{count}} jam dan hanya dapat digunakan sekali. Silakan masuk kembali untuk meminta tautan baru.',
    },
  },
  passwordExpired: {
    heading: 'Kata sandi Anda telah kedaluwarsa',
  },
  passwordWillExpire: {
    heading: 'Kata sandi Anda akan segera kedaluwarsa',
    today: 'Kata sandi Anda kedaluwarsa hari ini.',
    tomorrow: 'Kata sandi Anda kedaluwarsa besok.',
    inDays: {
      other: 'Kata sandi Anda kedaluwarsa dalam {{count}} hari.',
    },
    resetLater: 'Atur ulang nanti',
  },
  verificationPrompt: {
    heading: 'Verifikasi email Anda',
    body: {
      other:
        'Sebelum melanjutkan, konfirmasikan bahwa {{email}} adalah alamat email Anda. Kami akan mengirimkan tautan verifikasi yang berlaku selama {{count}} jam.',
    },
    send: 'Kirim email verifikasi',
    sentHeading: 'Periksa kotak masuk Anda',
    sentBody:
      'Kami telah mengirimkan tautan verifikasi ke {{email}}. Buka tautan tersebut untuk melanjutkan.',
    notReceived: 'Saya tidak menerima email',
    logout: 'Keluar',
  },
  sessionDialog: {
    heading: 'Keluar terlebih dahulu',
    body: 'Anda sedang masuk. Untuk menggunakan tautan ini, Anda harus keluar terlebih dahulu.',
    confirm: 'Keluar',
  },
  errors: {
    rateLimited:
      'Anda telah mengirim terlalu banyak permintaan. Harap tunggu beberapa menit, lalu coba lagi.',
    rateLimitedNetwork: 'Terlalu banyak permintaan dari jaringan Anda. Silakan coba lagi {{when}}.',
    rateLimitedVerification:
      'Kami sudah mengirimkan beberapa email verifikasi kepada Anda. Anda dapat meminta email lain {{when}}.',
    captcha:
      'Kami tidak dapat memastikan bahwa permintaan ini dibuat oleh manusia. Muat ulang halaman dan coba lagi.',
  },
  mail: {
    linkHint: 'Jika tombol tidak berfungsi, salin tautan ini ke browser Anda:',
    footer: 'Email ini dikirim oleh {{tenant}}.',
    activation: {
      subject: 'Aktifkan akun {{tenant}} Anda',
      heading: 'Aktifkan akun Anda',
      body: 'Akun telah dibuat untuk Anda di {{tenant}}. Pilih kata sandi Anda untuk mengaktifkannya.',
      action: 'Aktifkan akun',
      expiry: 'Tautan ini berlaku selama {{days}} hari dan hanya dapat digunakan sekali.',
      ignore: 'Jika Anda tidak mengharapkan undangan ini, Anda dapat mengabaikan email ini.',
    },
    reset: {
      subject: 'Atur ulang kata sandi {{tenant}} Anda',
      heading: 'Atur ulang kata sandi Anda',
      body: 'Kami menerima permintaan untuk mengatur ulang kata sandi akun {{tenant}} Anda.',
      action: 'Atur ulang kata sandi',
      expiry: 'Tautan ini berlaku selama {{minutes}} menit dan hanya dapat digunakan sekali.',
      ignore:
        'Jika Anda tidak memintanya, Anda dapat mengabaikan email ini: kata sandi Anda tidak akan berubah.',
    },
    verifyEmail: {
      subject: 'Verifikasi alamat email Anda untuk {{tenant}}',
      heading: 'Verifikasi alamat email Anda',
      body: 'Konfirmasikan bahwa ini adalah alamat email akun {{tenant}} Anda.',
      action: 'Verifikasi email',
      expiry: 'Tautan ini berlaku selama {{hours}} jam dan hanya dapat digunakan sekali.',
      ignore: 'Jika Anda tidak memintanya, Anda dapat mengabaikan email ini.',
    },
    partnerLinksRemoved: {
      subject: 'Masuk melalui mitra dihapus dari akun {{tenant}} Anda',
      heading: 'Masuk melalui mitra dihapus',
      body: 'Akun {{tenant}} Anda dibuat atau ditautkan melalui aplikasi mitra sebelum Anda mengambil alihnya. Sekarang setelah Anda melakukannya, mitra berikut tidak dapat lagi masuk ke akun tersebut:',
      relink:
        'Jika Anda sendiri menggunakan salah satu mitra ini, masuklah dengan kata sandi Anda dan tautkan kembali dari akun Anda.',
      action: 'Masuk',
      notYou:
        'Jika Anda tidak baru saja mengatur ulang kata sandi atau memverifikasi alamat Anda, hubungi administrator Anda.',
    },
  },
};
