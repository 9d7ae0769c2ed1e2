/**
 * The most common passwords of at least 12 characters in public breach corpora (lower case). Shorter
 * ones are refused by length anyway. A short list on purpose: it refuses the obvious, it is no breach check.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456789012', '1234567890123', '12345678901234', '123456789123', '123123123123', '111111111111', '000000000000',
  '1q2w3e4r5t6y', '1qaz2wsx3edc', 'qwertyuiopas', 'qwerty123456', '123456qwerty', 'qwertyuiop123', 'qwertyuiop12',
  'qweasdzxc123', 'zaq12wsxcde3', 'asdfghjkl123', 'asdfghjklqwe', 'abcdefghijkl', 'abc123456789', 'abcd12345678',
  'password1234', 'password12345', 'password123456', 'passwordpassword', 'password123!', 'password1234!', 'p@ssw0rd1234',
  'passw0rd1234', 'iloveyou1234', 'iloveyouiloveyou', 'letmein12345', 'welcome12345', 'welcome123456', 'administrator',
  'administrator1', 'admin1234567', 'admin123456789', 'changeme1234', 'changemenow!', 'trustno1trustno1', 'football1234',
  'baseball1234', 'superman1234', 'starwars1234', 'princess1234', 'sunshine1234', 'monkey123456', 'dragon123456',
  'master123456', 'michael12345', 'jennifer1234', 'computer1234', 'internet1234', 'whatever1234', 'qwerty123456789',
  'contraseña123', 'contrasena123', 'contrasena1234', 'contraseña1234', 'micontraseña', 'micontrasena1', 'cambio123456',
  'cambiocambio', 'exchange1234', 'bitcoin12345', 'correcthorsebatterystaple', 'thequickbrownfox', 'mypassword123',
  'mypassword1234', 'secretpassword', 'secret123456', 'testtesttest', 'test12345678', 'default12345', 'useruseruser',
]);
