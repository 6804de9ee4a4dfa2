import SharedSuite

/// After `saveContent`: the seed's `safari_saved_url` / `safari_saved_content`
/// and the share flow's `lastSharedURL` / `lastSharedText`, when the suite
/// stores them (`SuiteKeys.updateSeedSaveKeys`). The item is already in the
/// queue: a failure here is logged, never the save's failure.
enum SeedSaveKeys {
    static func update(url: String, content: String, in context: ActionContext) {
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            let keys = SuiteKeys.seedSavedURLKeys + SuiteKeys.seedSavedContentKeys
            guard keys.contains(where: { snapshot[$0] != nil }) else { return }
            try context.suite.update { values in SuiteKeys.updateSeedSaveKeys(url: url, content: content, in: &values) }
        } catch {
            context.logger.warn("saveContent: the item is saved; the seed's keys were not updated: \(error)")
        }
    }
}
