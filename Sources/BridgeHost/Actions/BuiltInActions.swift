/// The actions every bridge has beside `hello` and the legacy message (which
/// the endpoint always answers): the seed handler's and ours.
public enum BuiltInActions {
    public static var all: [BridgeAction] {
        [
            GetSettingsAction(), GetContentAction(), SaveContentAction(), SetSettingsAction(), QueueCountAction(),
            GetPageStateAction(), RemoveItemAction(), TransformAction(), GetSecretAction(),
        ]
    }
}
