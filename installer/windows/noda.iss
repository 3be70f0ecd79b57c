; Inno Setup script for Noda Desktop on Windows (UNTESTED: written here without a Windows machine).
; Build the folder first with installer\noda.spec (see installer\README.md), then, from the repository root:
;   iscc /DVersion=0.1.0 installer\windows\noda.iss
; Result: dist\noda-desktop-<version>-setup.exe. Per-user install by default (no administrator rights needed);
; uninstalling removes the program folder only — users' documents, settings and cache are left alone.

#ifndef Version
  #error Pass the version: iscc /DVersion=0.1.0 installer\windows\noda.iss
#endif
#define Bundle "..\..\dist\noda-desktop"

[Setup]
AppId={{6F1B8F0E-6C2B-4E0A-9B1D-4E6F6E6F6461}
AppName=노다 문서 근거 찾기 (Noda Desktop)
AppVersion={#Version}
AppPublisher=Noda Desktop
DefaultDirName={autopf}\Noda Desktop
DefaultGroupName=노다 문서 근거 찾기
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile={#Bundle}\LICENSE.txt
InfoBeforeFile={#Bundle}\NOTICE.txt
OutputDir=..\..\dist
OutputBaseFilename=noda-desktop-{#Version}-setup
Compression=lzma2/max
SolidCompression=yes
UninstallDisplayIcon={app}\noda-desktop.exe
WizardStyle=modern

[Languages]
Name: "korean"; MessagesFile: "compiler:Languages\Korean.isl"
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\노다 문서 근거 찾기"; Filename: "{app}\noda-desktop.exe"
Name: "{group}\{cm:UninstallProgram,노다 문서 근거 찾기}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\노다 문서 근거 찾기"; Filename: "{app}\noda-desktop.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\noda-desktop.exe"; Description: "{cm:LaunchProgram,노다 문서 근거 찾기}"; Flags: nowait postinstall skipifsilent
