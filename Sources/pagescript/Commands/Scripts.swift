import ArgumentParser

/// `pagescript scripts ...`: the user's script library.
struct Scripts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scripts",
        abstract: "Manage the script library: userscript files matched to sites by strict match patterns.",
        subcommands: [
            ListScripts.self, ShowScript.self, NewScript.self, RenameScript.self, RemoveScript.self, RestoreScript.self,
            EnableScript.self, DisableScript.self, DisableScriptForSite.self, EnableScriptForSite.self,
            WhichScripts.self, SaveScriptForSite.self, ImportScripts.self, ExportScripts.self,
            ScriptValuesCommand.self, UpdateScripts.self, SupplyScriptFile.self,
        ])
}
